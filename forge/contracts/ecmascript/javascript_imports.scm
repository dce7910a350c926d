; Imports that are expressions, for JavaScript, TypeScript and TSX (import
; statements are top-level statements, read by
; forge.contracts.ecmascript).

; require("./x") (or `./x`, a template without expressions: the imports module skips
; those with), with the call for its context (destructuring, .member, binding)
((call_expression
  function: (identifier) @_require
  arguments: (arguments . [(string) (template_string)] @source .)) @require
  (#eq? @_require "require"))

; import("./x")
((call_expression
  function: (import)
  arguments: (arguments . [(string) (template_string)] @source)) @dynamic_import)

; ns.member: a namespace's members, wherever the namespace is used
(member_expression
  object: (identifier) @member.object
  property: (property_identifier) @member.property)

; ns['member']: the same, by a string
(subscript_expression
  object: (identifier) @member.object
  index: (string) @member.property)

; const { a, b: { c } } = ns: members taken by destructuring
(variable_declarator
  name: (object_pattern) @destructure.pattern
  value: (identifier) @destructure.object)
