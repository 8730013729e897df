// Run by plain Node with no flags: imports each entry of the kit given on the command line and prints what it exports,
// as JSON. `browser` must be refused in Node, exactly as msw/browser is.
const result = {};
for (const entry of process.argv.slice(2)) {
  try {
    result[entry] = Object.keys(await import(`agent-registry-kit/${entry}`)).sort();
  } catch (error) {
    result[entry] = { error: error.code ?? String(error) };
  }
}
result['openapi.yaml'] = import.meta.resolve('agent-registry-kit/openapi.yaml');
console.log(JSON.stringify(result));
