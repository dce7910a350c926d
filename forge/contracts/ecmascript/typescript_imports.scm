; TypeScript and TSX only, added to javascript_imports.scm: a namespace's
; members used in type positions (let user: api.User).
(nested_type_identifier
  module: (identifier) @type.object
  name: (type_identifier) @type.property)
