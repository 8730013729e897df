// Run by plain Node with no flags: imports each entry of the kit given on the command line and prints what it exports,
// as JSON. `browser` must be refused in Node, exactly as msw/browser is. `shared` lists the names two or more entries
// export, and `distinct` those of them whose values differ between entries: a class exported by ./node and ./server
// must be one class, or `instanceof` fails for an error thrown through the other entry.
const result = {};
const values = new Map();
for (const entry of process.argv.slice(2)) {
  try {
    const module = await import(`agent-registry-kit/${entry}`);
    result[entry] = Object.keys(module).sort();
    for (const [name, value] of Object.entries(module)) values.set(name, [...(values.get(name) ?? []), value]);
  } catch (error) {
    result[entry] = { error: error.code ?? String(error) };
  }
}
const shared = [...values].filter(([, found]) => found.length > 1);
result.shared = shared.map(([name]) => name).sort();
result.distinct = shared.filter(([, found]) => new Set(found).size > 1).map(([name]) => name);
result['openapi.yaml'] = import.meta.resolve('agent-registry-kit/openapi.yaml');
console.log(JSON.stringify(result));
