"""The static files' storage in production: whitenoise's compressed manifest (hashed names, far-future caching),
which also rewrites the screens' ES module imports (`import * as Util from "./util.js";`) to the hashed names, so
a module and the page that loads it name one file and the browser runs it once."""

from whitenoise.storage import CompressedManifestStaticFilesStorage


class ModuleManifestStaticFilesStorage(CompressedManifestStaticFilesStorage):
    support_js_module_import_aggregation = True
