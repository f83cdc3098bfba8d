"""i18n: the tools that keep the catalogs (``make i18n``): extraction, the traditional catalog's start
from the simplified one, and the checks ``tests/test_i18n_catalogs.py`` runs. Not part of the package."""
