// Prints plain text (not JSON), with a trailing newline.
process.stdout.write('found 2 notes\nfirst: hello\n');
