import js from "@eslint/js";
import tseslint from "typescript-eslint";

export default tseslint.config(
  { ignores: ["node_modules/**", "artifacts/**", "coverage/**", "bench/results/**", "bench/scratch/**", "test-output/**", "dist/**"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    // The server, and the shared modules it reads (lib/, formats/), never import the offline build.
    files: ["server/**/*.ts", "lib/**/*.ts", "formats/**/*.ts", "tiles/**/*.ts"],
    rules: {
      "no-restricted-imports": ["error", { patterns: [{ group: ["**/pipeline/**"], message: "server/, lib/, formats/ and tiles/ must not import pipeline/: move shared code into lib/ or formats/" }] }],
    },
  },
  {
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "no-constant-condition": ["error", { checkLoops: false }],
    },
  },
);
