// plain-env.mjs — imported first by the tests that run child processes and read what they print: `node --test` in a
// terminal sets FORCE_COLOR for its children, and a child's console.log of a number then prints colour codes around
// it, which no reader of the output (a hash compared, a CSV parsed) expects. The children these tests start print
// as they would for a person who ran them in a pipe.
delete process.env.FORCE_COLOR;
