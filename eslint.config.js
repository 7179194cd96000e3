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
  // The screens split by panel are written as every module will be: const and let, no function wrapped around a
  // module's body (a module has its own scope and is strict), the DOM built with Util.el.
  {
    files: ["static/js/dealer.js", "static/js/dealer/**/*.js", "static/js/floor-map.js", "static/js/map/**/*.js",
            "static/js/waiting-list.js", "static/js/push-optin.js"],
    rules: {
      "no-var": "error",
      "prefer-const": "error",
      "no-restricted-syntax": ["error",
        { selector: "Program > ExpressionStatement > CallExpression[callee.type=/FunctionExpression$/]",
          message: "No IIFE inside a module: its body has its own scope." },
        { selector: "CallExpression[callee.object.name='document'][callee.property.name='createElement']",
          message: "Build the DOM with Util.el (static/js/util.js)." },
        { selector: "AssignmentExpression[left.property.name='innerHTML']",
          message: "Build the DOM with Util.el (static/js/util.js), not HTML text." },
      ],
    },
  },
  {
    files: ["static/js/tablet-sw.js", "static/js/push-sw.js"],
    languageOptions: { sourceType: "script", globals: { ...globals.serviceworker } },
  },
];
