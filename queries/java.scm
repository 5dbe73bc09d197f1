; tandem tags for Java: classes, interfaces, enums, records, annotations, methods, constructors,
; constants; calls, constructions, type uses.

(class_declaration name: (identifier) @name.definition.class) @definition.class
(interface_declaration name: (identifier) @name.definition.interface) @definition.interface
(enum_declaration name: (identifier) @name.definition.enum) @definition.enum
(record_declaration name: (identifier) @name.definition.class) @definition.class
(annotation_type_declaration name: (identifier) @name.definition.interface) @definition.interface
(method_declaration name: (identifier) @name.definition.method) @definition.method
(constructor_declaration name: (identifier) @name.definition.method) @definition.method
(field_declaration
  (modifiers "static" "final")
  declarator: (variable_declarator name: (identifier) @name.definition.constant)) @definition.constant

(method_invocation name: (identifier) @name.reference.call)
(object_creation_expression type: (type_identifier) @name.reference.class)
(superclass (type_identifier) @name.reference.class)
(super_interfaces (type_list (type_identifier) @name.reference.interface))
(type_identifier) @name.reference.type
