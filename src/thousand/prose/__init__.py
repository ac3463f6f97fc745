"""Rule prose for people: the words of each parameter and value (words), the texts of the web
API and the CLI (texts), the generated rules reference (reference), all through the translated
catalogues of :mod:`thousand.i18n`; and the tool that keeps those catalogues in step (extract).
The rule data itself (parameters, values, templates) is :mod:`thousand.rules`, which knows no
language."""
