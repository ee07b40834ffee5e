"""Turn a benchmark run into results.json, a markdown table and a log-log plot."""

from __future__ import annotations

import json
from pathlib import Path

from .workload import KINDS

ORDER = (
    "floor",
    "answers",
    "policyc",
    "policyc-pure",
    "policyc-generated",
    "reference",
    "cedarpy",
    "cedarpy-batch",
    "pycasbin",
)


# A floor that moves more than this between rows marks a run whose rows
# ran at different machine speeds.
SPREAD_WARNING = 1.25


def _us(ns: float) -> str:
    us = ns / 1000
    if us >= 1000:
        return f"{us / 1000:.1f} ms"
    if us >= 10:
        return f"{us:.0f} µs"
    return f"{us:.2f} µs"


def markdown(results: dict) -> str:
    rows = results["rows"]
    names = [n for n in ORDER if any(n in r["engines"] for r in rows)]
    m = results["machine"]
    lines = [
        f"Machine: {m['cpu'] or 'unknown CPU'}, {m['cores']} cores, {m['implementation']} {m['python']}, {m['system']}.",
        f"{results['calls']} seeded calls per size; median per-call latency (the timing loop's own cost subtracted, the call counted);",
        "× = ratio to the floor in the same run. Slow engines are timed on the first calls within a budget (n).",
        f"policyc: the table runtime, its walks {m.get('walks', 'pure')}"
        + (
            "; policyc-pure: the same with its pure-Python walks (an install without a C compiler)."
            if m.get("walks") == "compiled"
            else "."
        ),
        "",
        "| policy | " + " | ".join(names) + " |",
        "|---|" + "---|" * len(names),
    ]
    for r in rows:
        cells = []
        for n in names:
            s = r["engines"].get(n)
            if s is None:
                cells.append("–")
                continue
            cell = f"{_us(s['p50_ns'])} ({s['over_floor']}×)"
            if s["calls"] < results["calls"]:
                cell += f" n={s['calls']}"
            if s.get("mean_only"):
                cell += " mean"
            cells.append(cell)
        lines.append(f"| {r['label']} ({r['rules']} rules) | " + " | ".join(cells) + " |")
    notes = [
        f"- {r['label']}: {name} {why}" for r in rows for name, why in r.get("skipped", {}).items()
    ]
    floors = [r["engines"]["floor"]["p50_ns"] for r in rows if "floor" in r["engines"]]
    if floors and min(floors) > 0:
        # The floor is the same function in every row: where it moved, the
        # machine changed speed between rows, and only ratios within a row hold.
        spread = max(floors) / min(floors)
        note = f"- The floor across rows: {_us(min(floors))} to {_us(max(floors))}"
        if spread > SPREAD_WARNING:
            note += (
                f" ({spread:.2f}×): the machine changed speed between rows; compare"
                " rows by their × to the floor, not by their times"
            )
        notes.append(note)
    if notes:
        lines += ["", *notes]
    lines += [
        "",
        "| policy | compile | compile peak RSS | artifact | bytes/rule | load | first decision per tool | RSS after load | batch/singles | p99 policyc |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        lines.append(
            f"| {r['label']} | {r['compile_s']:.2f} s | {r['compile_peak_mb']:.0f} MB | {r['artifact_bytes'] / 1024:.0f} KiB "
            f"| {r['bytes_per_rule']} | {r['load_s'] * 1000:.0f} ms | {r['warm_s'] * 1000:.0f} ms | {r['loaded_rss_mb']:.0f} MB "
            f"| {r['batch_over_singles']} | {_us(r['engines']['policyc']['p99_ns'])} |"
        )
    base = next((r for r in rows if r["label"] == "N=10" and "policyc_once_p50_ns" in r), None)
    if base is not None:
        lines += [
            "",
            "policyc's median by how often a call repeats back to back: once among the others",
            f"(its data mostly out of the CPU caches), {results['repeats']}× (the tables above), 50× (all in cache);",
            f"ratio to N=10 in the same column. Then the {results['repeats']}× median over the same",
            "row's floor, as a ratio to N=10's (the same, if the machine kept its speed); last, the",
            f"answers floor's {results['repeats']}× median (each call's own verdict looked up), as a ratio to N=10's.",
            "",
            "| policy | once | "
            + f"{results['repeats']}× | 50× | {results['repeats']}× ÷ floor | answers, {results['repeats']}× |",
            "|---|---|---|---|---|---|",
        ]
        for r in rows:
            if "policyc_once_p50_ns" not in r:
                continue
            cells = []
            for key in ("policyc_once_p50_ns", None, "policyc_hot_p50_ns"):
                ns = r[key] if key else r["engines"]["policyc"]["p50_ns"]
                at_10 = base[key] if key else base["engines"]["policyc"]["p50_ns"]
                cells.append(f"{_us(ns)} ({ns / at_10:.2f}×)")
            over = r["engines"]["policyc"]["p50_ns"] / r["engines"]["floor"]["p50_ns"]
            over_10 = base["engines"]["policyc"]["p50_ns"] / base["engines"]["floor"]["p50_ns"]
            cells.append(f"{over:.1f}× ({over / over_10:.2f}×)")
            if "answers" in r["engines"] and "answers" in base["engines"]:
                ns, at_10 = r["engines"]["answers"]["p50_ns"], base["engines"]["answers"]["p50_ns"]
                cells.append(f"{_us(ns)} ({ns / at_10:.2f}×)" if at_10 else "–")
            else:
                cells.append("–")
            lines.append(f"| {r['label']} | " + " | ".join(cells) + " |")
    lines += _by_kind(results)
    return "\n".join(lines) + "\n"


def _by_kind(results: dict) -> list[str]:
    """policyc's and the answers floor's medians by kind of call, each as a
    ratio to N=10's median for the same kind: which calls grow with N."""
    rows = [r for r in results["rows"] if r.get("by_kind")]
    base = next((r for r in rows if r["label"] == "N=10"), None)
    if base is None:
        return []
    kinds = [k for k in KINDS if k in base["by_kind"]]
    repeats = results["repeats"]
    out = [
        "",
        f"By kind of call ({repeats}×, then policyc with each call repeated 50× back to back, all",
        "in cache; how many calls of each kind in the header): the median of each kind, and its",
        "ratio to N=10's median of the same kind.",
    ]
    for name in ("policyc", "policyc 50×", "answers"):
        if not any(name in kind for kind in base["by_kind"].values()):
            continue
        out += [
            "",
            f"| {name} | "
            + " | ".join(f"{KINDS[k]} ({base['by_kind'][k]['calls']})" for k in kinds)
            + " |",
            "|---|" + "---|" * len(kinds),
        ]
        for r in rows:
            cells = []
            for k in kinds:
                ns = r["by_kind"].get(k, {}).get(name)
                at_10 = base["by_kind"][k].get(name)
                if ns is None or not at_10:
                    cells.append("–")
                else:
                    cells.append(f"{_us(ns)} ({ns / at_10:.2f}×)")
            out.append(f"| {r['label']} | " + " | ".join(cells) + " |")
    return out


def plot(results: dict, path: Path) -> bool:
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return False
    rows = [r for r in results["rows"] if r["label"].startswith("N=")]
    fig, ax = plt.subplots(figsize=(7, 4.5))
    for name in ORDER:
        points = [
            (r["rules"], r["engines"][name]["p50_ns"] / 1000) for r in rows if name in r["engines"]
        ]
        if points:
            xs, ys = zip(*points, strict=True)
            ax.plot(xs, [max(y, 1e-3) for y in ys], marker="o", label=name)
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("rules in the policy")
    ax.set_ylabel("median decision latency (µs)")
    ax.set_title("Decision latency against rule count")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return True


def write_reports(results: dict, out: Path) -> list[Path]:
    paths = [out / "results.json", out / "results.md"]
    paths[0].write_text(json.dumps(results, indent=2))
    paths[1].write_text(markdown(results))
    if plot(results, out / "latency.png"):
        paths.append(out / "latency.png")
    return paths
