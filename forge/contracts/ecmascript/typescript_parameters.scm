; TypeScript and TSX only, added to javascript_declarations.scm: parameters.

(required_parameter pattern: (identifier) @declared)
(optional_parameter pattern: (identifier) @declared)
