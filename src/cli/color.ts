/**
 * Whether to colour what goes to `stream`, as Node and the npm ecosystem read the environment:
 * `FORCE_COLOR` wins (`0` or `false` turns colour off; any other value, empty included, turns it
 * on even when piped, as CI logs that render ANSI ask for), then a non-empty `NO_COLOR` turns it
 * off (no-color.org), else colour only on a terminal that is not `TERM=dumb`.
 */
export function colorWanted(
  stream: { isTTY?: boolean },
  env: NodeJS.ProcessEnv = process.env,
): boolean {
  const force = env.FORCE_COLOR;
  if (force !== undefined) return force !== '0' && force.toLowerCase() !== 'false';
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  return stream.isTTY === true && env.TERM !== 'dumb';
}
