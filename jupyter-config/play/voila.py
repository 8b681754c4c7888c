# The play app's Voila settings (python -m box_gin.tools.play adds this folder to
# JUPYTER_CONFIG_PATH; JupyterLab never reads it).  See box_gin/tools/play.py.
from box_gin.tools.lab import QUIET_LOGS
from box_gin.tools.play import CULL_IDLE_SECONDS, prelaunch_hook

c = get_config()  # noqa: F821 (traitlets defines it)

# The _xsrf cookie (a closed page's shutdown request carries it) and the table id.
c.VoilaConfiguration.prelaunch_hook = prelaunch_hook
# A kernel whose page went away without a word (a crash, a lost network) is culled once
# it has been idle that long with no page connected; an open page keeps its kernel.
c.MappingKernelManager.cull_idle_timeout = CULL_IDLE_SECONDS
c.MappingKernelManager.cull_interval = 60
c.MappingKernelManager.cull_connected = False
# No "websocket_ping_timeout cannot be longer than the websocket_ping_interval" warning.
c.Voila.logging_config = QUIET_LOGS
