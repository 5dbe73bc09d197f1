; tandem tags shared by JavaScript, TypeScript and TSX (inherited by those files, not a language).
; Classes, functions, methods, top-level bindings; calls, constructors, superclasses, imports.

(method_definition name: (property_identifier) @name.definition.method) @definition.method


(function_declaration name: (identifier) @name.definition.function) @definition.function
(generator_function_declaration name: (identifier) @name.definition.function) @definition.function
(function_expression name: (identifier) @name.definition.function) @definition.function

; const f = () => ... / const f = function () {...}
(variable_declarator
  name: (identifier) @name.definition.function
  value: [(arrow_function) (function_expression)]) @definition.function

; module.exports.f = function () {...} / obj.f = () => ...
(assignment_expression
  left: (member_expression property: (property_identifier) @name.definition.function)
  right: [(arrow_function) (function_expression)]) @definition.function

; Top-level bindings, plain or exported.
(program (lexical_declaration (variable_declarator name: (identifier) @name.definition.constant) @definition.constant))
(program (variable_declaration (variable_declarator name: (identifier) @name.definition.constant) @definition.constant))
(program (export_statement (lexical_declaration (variable_declarator name: (identifier) @name.definition.constant) @definition.constant)))

(call_expression function: (identifier) @name.reference.call)
(call_expression function: (member_expression property: (property_identifier) @name.reference.call))
(new_expression constructor: (identifier) @name.reference.class)
(new_expression constructor: (member_expression property: (property_identifier) @name.reference.class))

(import_specifier name: (identifier) @name.reference.module)
(import_clause (identifier) @name.reference.module)

(member_expression property: (property_identifier) @name.reference.property)
