// The JavaScript linter (scripts/test runs it on static/js): ESLint's recommended rules on the screens' plain ES
// modules, which run in the browser as they are (no build step). Django's JavaScript catalogue defines gettext and
// its siblings as globals (templates/base.html loads it before the modules).
import js from "@eslint/js";
import globals from "globals";

export default [
  { ignores: ["node_modules/", "var/", ".venv/", "staticfiles/"] },
  js.configs.recommended,
  {
    files: ["static/js/**/*.js"],
    languageOptions: {
      ecmaVersion: 2022,
      sourceType: "module",
      globals: {
        ...globals.browser,
        gettext: "readonly", ngettext: "readonly", pgettext: "readonly", npgettext: "readonly", interpolate: "readonly",
      },
    },
  },
  {
    files: ["static/js/tablet-sw.js"],
    languageOptions: { sourceType: "script", globals: { ...globals.serviceworker } },
  },
];
