// Lints the UI's TypeScript: the React hook rules (hooks called unconditionally, effect
// dependencies complete) and typescript-eslint's recommended rules. `npm run lint`;
// scripts/test.sh runs it next to the typecheck.
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'src/generated/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['src/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.flat.recommended.rules,
      'react-hooks/exhaustive-deps': 'error',
      // The React Compiler checks below are off: the UI does not use the compiler, and
      // meeting them means rewriting working code. `refs` flags the "latest callback in a
      // ref" pattern (SourceView, useDebouncedText, Lightbox, the canvas caches);
      // `set-state-in-effect` flags effects that reset state when their input changes
      // (App, useDiskWatch, useFlowLayout, useNow); `purity` flags `Date.now()` in render.
      'react-hooks/refs': 'off',
      'react-hooks/set-state-in-effect': 'off',
      'react-hooks/purity': 'off',
    },
  },
);
