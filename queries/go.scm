; tandem tags for Go: functions, methods, types (struct, interface, others), constants, package
; variables, interface methods; calls, type uses, selectors.

(function_declaration name: (identifier) @name.definition.function) @definition.function
(method_declaration name: (field_identifier) @name.definition.method) @definition.method

(type_declaration (type_spec name: (type_identifier) @name.definition.class type: (struct_type)) @definition.class)
(type_declaration (type_spec name: (type_identifier) @name.definition.interface type: (interface_type)) @definition.interface)
(type_declaration (type_spec name: (type_identifier) @name.definition.type) @definition.type)
(type_declaration (type_alias name: (type_identifier) @name.definition.type) @definition.type)

(interface_type (method_spec name: (field_identifier) @name.definition.method) @definition.method)
(source_file (const_declaration (const_spec name: (identifier) @name.definition.constant) @definition.constant))
(source_file (var_declaration (var_spec name: (identifier) @name.definition.variable) @definition.variable))

(call_expression function: (identifier) @name.reference.call)
(call_expression function: (selector_expression field: (field_identifier) @name.reference.call))
(type_identifier) @name.reference.type
(selector_expression field: (field_identifier) @name.reference.field)
(composite_literal type: (type_identifier) @name.reference.class)
