/**
 * Variables that point git at another repository than the one in its working directory. Set by
 * a hook or an alias that runs ctxloop, `GIT_DIR` sent every git command elsewhere: eval's forced
 * checkout and reflog expiry to the user's own repository, the history signal to another log.
 */
const REPOSITORY_VARIABLES = /^GIT_(?:DIR|WORK_TREE|INDEX_FILE|OBJECT_DIRECTORY|ALTERNATE_OBJECT_DIRECTORIES|COMMON_DIR|NAMESPACE|CEILING_DIRECTORIES|DISCOVERY_ACROSS_FILESYSTEM|CONFIG\w*|PREFIX)$/;

/** `env` without the variables that would make git read or write a repository other than the one it runs in. */
export function withoutRepositoryVariables(env: NodeJS.ProcessEnv | Record<string, string | undefined>): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(env)) if (!REPOSITORY_VARIABLES.test(name)) out[name] = value;
  return out;
}
