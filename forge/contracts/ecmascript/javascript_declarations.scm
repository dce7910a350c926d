; Names declared below the top level, for JavaScript, TypeScript and TSX: a
; use of a module binding (import * as ns, const m = require()) inside the
; scope of a declaration of the same name is that declaration's, read by
; forge.contracts.ecmascript. Parameters: javascript_parameters.scm or
; typescript_parameters.scm (TypeScript wraps each in required_parameter).

(variable_declarator name: (identifier) @declared)
(variable_declarator name: (object_pattern (shorthand_property_identifier_pattern) @declared))
(variable_declarator name: (array_pattern (identifier) @declared))
(arrow_function parameter: (identifier) @declared)
(catch_clause parameter: (identifier) @declared)
(for_in_statement left: (identifier) @declared)
(function_declaration name: (identifier) @declared)
; a function expression's own name binds inside it: `const x = function names() {}`
(function_expression name: (identifier) @declared)
