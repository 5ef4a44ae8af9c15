/** Entry point of the demo's fake agents (run in tmux panes as `node dist/demo-agent.js <role> ...`). */
process.stdout.write('demo agent not built yet\n');
