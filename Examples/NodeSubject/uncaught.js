// An executor that dies of an uncaught TypeError on its first leadingBlanks question, as a
// picker does that calls a method its date library lacks. CI sweeps it to show that the
// harness names the error (TypeError: …), not Node's last stderr line (its version).
const readline = require('node:readline');
const lines = readline.createInterface({ input: process.stdin });
lines.on('line', (line) => {
  const question = JSON.parse(line);
  if (question.function === 'hello') {
    process.stdout.write(JSON.stringify({ id: 0, answer: { name: 'uncaught', functions: ['leadingBlanks'] } }) + '\n');
    return;
  }
  const calendar = {};
  const first = calendar.startOfMonth(question.month);  // TypeError: not a function
  process.stdout.write(JSON.stringify({ id: question.id, answer: first }) + '\n');
});
