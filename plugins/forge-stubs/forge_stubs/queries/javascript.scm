; Every JS/TS function with a body: declarations, expressions, generators,
; arrow functions with a block body, methods. TypeScript signatures
; (overloads, `declare`, interface and abstract members) have no body, so they
; never match. Shared by the javascript, typescript and tsx grammars.
[
  (function_declaration body: (statement_block) @body)
  (generator_function_declaration body: (statement_block) @body)
  (function_expression body: (statement_block) @body)
  (generator_function body: (statement_block) @body)
  (arrow_function body: (statement_block) @body)
  (method_definition body: (statement_block) @body)
] @function
