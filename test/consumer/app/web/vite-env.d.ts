// The environment variables the app reads (Vite exposes those prefixed VITE_ on import.meta.env).
interface ImportMetaEnv {
  readonly VITE_MOCK?: string;
  readonly VITE_API_TOKEN?: string;
}
interface ImportMeta {
  readonly env: ImportMetaEnv;
}
