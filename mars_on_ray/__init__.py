"""mars_on_ray: Mars (distributed NumPy, pandas, scikit-learn) as a plugin for Ray."""
from .config import options
from .session import Session, execute, fetch, get_default_session, new_session

__all__ = ["Session", "execute", "fetch", "get_default_session", "new_session", "options"]
__version__ = "0.1.0"
