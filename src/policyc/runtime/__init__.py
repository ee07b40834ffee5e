"""policyc's runtime: load a compiled decision table and decide tool calls.

Standard library only, so an agent can embed it without the compiler's
dependencies:

    from policyc.runtime import load
    table = load("policy.artifact.json")
    verdict = table.decide("bash", {"command": "git status"})
    verdict.action   # "allow" | "block" | "defer"
"""

from .artifact import FORMAT_VERSION, MAGIC, ArtifactError, load
from .engine import Refusal, Table
from .model import Rule, Source
from .rules import RuleSyntaxError, parse_rules
from .verdict import VERDICT_NS, Verdict

__all__ = [
    "FORMAT_VERSION",
    "MAGIC",
    "VERDICT_NS",
    "ArtifactError",
    "Refusal",
    "Rule",
    "RuleSyntaxError",
    "Source",
    "Table",
    "Verdict",
    "load",
    "parse_rules",
]
