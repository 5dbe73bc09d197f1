; tandem tags for C#: namespaces, classes, structs, records, interfaces, enums, delegates,
; methods, constructors, properties, events, constants; calls, constructions, base types, type uses.

(class_declaration name: (identifier) @name.definition.class) @definition.class
(struct_declaration name: (identifier) @name.definition.class) @definition.class
(record_declaration name: (identifier) @name.definition.class) @definition.class
(interface_declaration name: (identifier) @name.definition.interface) @definition.interface
(enum_declaration name: (identifier) @name.definition.enum) @definition.enum
(delegate_declaration name: (identifier) @name.definition.type) @definition.type
(namespace_declaration name: (identifier) @name.definition.module) @definition.module
(namespace_declaration name: (qualified_name (identifier) @name.definition.module .)) @definition.module
(method_declaration name: (identifier) @name.definition.method) @definition.method
(constructor_declaration name: (identifier) @name.definition.method) @definition.method
(property_declaration name: (identifier) @name.definition.field) @definition.field
(event_field_declaration (variable_declaration (variable_declarator (identifier) @name.definition.field))) @definition.field
(field_declaration
  (modifier) @_const
  (variable_declaration (variable_declarator (identifier) @name.definition.constant))
  (#eq? @_const "const")) @definition.constant

(invocation_expression function: (identifier) @name.reference.call)
(invocation_expression function: (member_access_expression name: (identifier) @name.reference.call))
(object_creation_expression type: (identifier) @name.reference.class)
(base_list (identifier) @name.reference.class)
(variable_declaration type: (identifier) @name.reference.type)
(parameter type: (identifier) @name.reference.type)
(type_argument_list (identifier) @name.reference.type)
(property_declaration type: (identifier) @name.reference.type)
(method_declaration type: (identifier) @name.reference.type)
((member_access_expression expression: (identifier) @name.reference.class) (#match? @name.reference.class "^[A-Z]"))
(generic_name (identifier) @name.reference.type)
