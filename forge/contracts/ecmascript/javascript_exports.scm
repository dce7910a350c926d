; CommonJS exports, for JavaScript, TypeScript and TSX (ES module exports are
; top-level statements, read by forge.contracts.ecmascript).
; Captures: @replace (module.exports = value), @name (module.exports.name = ...),
; @alias_name (exports.name = ..., lost once module.exports is replaced),
; @star_source (__exportStar(require("..."), exports): every name of that file).

; module.exports = value
(assignment_expression
  left: (member_expression
    object: (identifier) @_module
    property: (property_identifier) @_exports)
  right: (_) @replace
  (#eq? @_module "module")
  (#eq? @_exports "exports"))

; exports.name = value
(assignment_expression
  left: (member_expression
    object: (identifier) @_exports
    property: (property_identifier) @alias_name)
  (#eq? @_exports "exports"))

; exports["name"] = value
(assignment_expression
  left: (subscript_expression
    object: (identifier) @_exports
    index: (string (string_fragment) @alias_name))
  (#eq? @_exports "exports"))

; module.exports.name = value
(assignment_expression
  left: (member_expression
    object: (member_expression
      object: (identifier) @_module
      property: (property_identifier) @_exports)
    property: (property_identifier) @name)
  (#eq? @_module "module")
  (#eq? @_exports "exports"))

; module.exports["name"] = value
(assignment_expression
  left: (subscript_expression
    object: (member_expression
      object: (identifier) @_module
      property: (property_identifier) @_exports)
    index: (string (string_fragment) @name))
  (#eq? @_module "module")
  (#eq? @_exports "exports"))

; Object.defineProperty(exports, "name", ...)
(call_expression
  function: (member_expression
    object: (identifier) @_object
    property: (property_identifier) @_define)
  arguments: (arguments
    .
    (identifier) @_exports
    .
    (string (string_fragment) @alias_name))
  (#eq? @_object "Object")
  (#eq? @_define "defineProperty")
  (#eq? @_exports "exports"))

; Object.defineProperty(module.exports, "name", ...)
(call_expression
  function: (member_expression
    object: (identifier) @_object
    property: (property_identifier) @_define)
  arguments: (arguments
    .
    (member_expression
      object: (identifier) @_module
      property: (property_identifier) @_exports)
    .
    (string (string_fragment) @name))
  (#eq? @_object "Object")
  (#eq? @_define "defineProperty")
  (#eq? @_module "module")
  (#eq? @_exports "exports"))

; __exportStar(require("./x"), exports), TypeScript's CommonJS output (tslib's too)
(call_expression
  function: [
    (identifier) @_star
    (member_expression property: (property_identifier) @_star)
  ]
  arguments: (arguments
    .
    (call_expression
      function: (identifier) @_require
      arguments: (arguments . (string (string_fragment) @star_source)))
    .
    (identifier) @_exports)
  (#eq? @_star "__exportStar")
  (#eq? @_require "require")
  (#eq? @_exports "exports"))
