// A style sheet imported by a script: rolldown inlines it as text (tools/bundle.ts, moduleTypes), which the devtools
// panel puts in its shadow root.
declare module '*.css' {
  const text: string;
  export default text;
}
