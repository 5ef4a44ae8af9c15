/** The context a command runs in, made from its options; a bad config is said once, here. */
import { EXIT } from './spec.js';
import { ConfigError } from '../config/config.js';
import { createContext } from '../context/context.js';
import type { AppContext, GlobalOptions } from '../context/context.js';

/** The context, or an exit code after saying on stderr what is wrong with the config or `--demo`. */
export async function commandContext(opts: GlobalOptions): Promise<AppContext | number> {
  try {
    return await createContext(opts);
  } catch (err) {
    // By name: the module that throws it loads only for --demo.
    if (err instanceof Error && err.name === 'DemoTargetError') {
      process.stderr.write(`tower: ${err.message}\n`);
      return EXIT.failure;
    }
    if (!(err instanceof ConfigError)) throw err;
    process.stderr.write(`tower: ${err.message}\n`);
    return EXIT.usage;
  }
}
