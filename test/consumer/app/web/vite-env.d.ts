// The environment variables the app reads (Vite exposes those prefixed VITE_ on import.meta.env, and DEV: true under
// the dev server, false in a build).
interface ImportMetaEnv {
  readonly DEV: boolean;
  readonly VITE_MOCK?: string;
  readonly VITE_API_TOKEN?: string;
}
interface ImportMeta {
  readonly env: ImportMetaEnv;
}
