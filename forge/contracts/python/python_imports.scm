; Python imports anywhere in a file (lazy imports inside functions count),
; and attribute chains that start at a name (m.attr, a.b.attr), read by
; forge.contracts.python. Top-level bindings are read from the
; tree directly: a query cannot say "not inside a def".

(import_statement) @import
(import_from_statement) @import_from

; the innermost link of a chain: its parents add .b.c
(attribute
  object: (identifier) @attribute.root) @attribute
