// `npm run pipeline -- <command>` (commands in cli-commands.ts). Logs go to stderr, so stdout holds only the
// command's result: one JSON document off a terminal (`make nightly > summary.json 2> nightly.log`).
process.env.LOG_STREAM ??= "stderr";
const { runCli } = await import("./cli-commands.ts");
await runCli(process.argv.slice(2));
