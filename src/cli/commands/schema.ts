import { EXIT, printJson, type Command } from '../command.js';
import { resultJsonSchema, scenarioJsonSchema } from '../../validate/index.js';

const usage = `Usage: mobilebridge schema scenario|result

Prints a JSON Schema (draft 2020-12) on stdout, generated from the same definitions the
validator uses:
  scenario   the scenario document (schema 2.0 / 2.1 / 2.2), e.g. for editor completion
  result     the run result document written by 'mobilebridge run'

Example (VS Code): mobilebridge schema scenario > .vscode/scenario.schema.json
`;

const SCHEMAS: Record<string, () => Record<string, unknown>> = { scenario: scenarioJsonSchema, result: resultJsonSchema };

const command: Command = {
  name: 'schema',
  usage,
  flags: [],
  async run(args) {
    const which = args[0];
    const make = which === undefined ? undefined : SCHEMAS[which];
    if (!make || args.length > 1) {
      process.stderr.write(`mobilebridge schema: expected "scenario" or "result"${which ? `, got "${args.join(' ')}"` : ''}\n\n${usage}`);
      return EXIT.invalidInput;
    }
    printJson(make());
    return EXIT.ok;
  },
};

export default command;
