"""The compiler: `Bundle` -> decision-table artifact. See `stages`."""

from .stages import STAGE_NAMES, STAGES, build_table, compile_bundle

__all__ = ["STAGES", "STAGE_NAMES", "build_table", "compile_bundle"]
