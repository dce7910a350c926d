; JavaScript only, added to javascript_declarations.scm: parameters.

(formal_parameters (identifier) @declared)
(formal_parameters (assignment_pattern left: (identifier) @declared))
