"""pytest (nbval) here collects the kit's own notebooks only: never a learner's scratch
notebook or a JupyterLab checkpoint (box_gin.tools.kit.kit_files); a kernel that dies at
its start is started again (box_gin.tools.kit.retry_kernel_starts)."""

from box_gin.tools.kit import not_the_kits_notebook as pytest_ignore_collect
from box_gin.tools.kit import retry_kernel_starts

retry_kernel_starts()

# --doctest-modules would import this file as a module named "conftest" (it has none).
collect_ignore = ["conftest.py"]
__all__ = ["pytest_ignore_collect"]
