; inherits: ecma
; tandem tags for TypeScript, on top of ecma.scm: interfaces, type aliases, enums, abstract
; classes, namespaces, signatures; type references.

(abstract_class_declaration name: (type_identifier) @name.definition.class) @definition.class
(class_declaration name: (type_identifier) @name.definition.class) @definition.class
(class name: (type_identifier) @name.definition.class) @definition.class
(interface_declaration name: (type_identifier) @name.definition.interface) @definition.interface
(type_alias_declaration name: (type_identifier) @name.definition.type) @definition.type
(enum_declaration name: (identifier) @name.definition.enum) @definition.enum
(internal_module name: (identifier) @name.definition.module) @definition.module
(module name: (identifier) @name.definition.module) @definition.module
(abstract_method_signature name: (property_identifier) @name.definition.method) @definition.method
(method_signature name: (property_identifier) @name.definition.method) @definition.method
(function_signature name: (identifier) @name.definition.function) @definition.function
(public_field_definition name: (property_identifier) @name.definition.field) @definition.field

(type_annotation (type_identifier) @name.reference.type)
(generic_type name: (type_identifier) @name.reference.type)
(type_arguments (type_identifier) @name.reference.type)
(extends_clause value: (identifier) @name.reference.class)
(extends_clause value: (member_expression property: (property_identifier) @name.reference.class))
(extends_type_clause type: (type_identifier) @name.reference.interface)
(implements_clause (type_identifier) @name.reference.interface)
(type_identifier) @name.reference.type
