"""Rule prose for people: the words of each parameter and value (words), the texts of the web
API (texts), the generated rules reference (reference), each move kind in words (moves), what
the terminal games say (table) and what ``thousand rules`` says (command), all through the
translated catalogues of :mod:`thousand.i18n`; and the tool that keeps those catalogues in step
(extract). The engine's refusal reasons are the referee's words and stay English.
The rule data itself (parameters, values, templates) is :mod:`thousand.rules`, which knows no
language."""
