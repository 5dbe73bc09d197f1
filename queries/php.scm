; tandem tags for PHP: namespaces, classes, interfaces, traits, enums, functions, methods,
; constants, properties; calls, constructions, base types, trait uses, type hints.

(namespace_definition name: (namespace_name (name) @name.definition.module .)) @definition.module
(class_declaration name: (name) @name.definition.class) @definition.class
(interface_declaration name: (name) @name.definition.interface) @definition.interface
(trait_declaration name: (name) @name.definition.interface) @definition.interface
(enum_declaration name: (name) @name.definition.enum) @definition.enum
(function_definition name: (name) @name.definition.function) @definition.function
(method_declaration name: (name) @name.definition.method) @definition.method
(const_declaration (const_element (name) @name.definition.constant)) @definition.constant
(property_declaration (property_element (variable_name (name) @name.definition.field))) @definition.field

(function_call_expression function: (name) @name.reference.call)
(function_call_expression function: (qualified_name (name) @name.reference.call))
(member_call_expression name: (name) @name.reference.call)
(scoped_call_expression name: (name) @name.reference.call)
(scoped_call_expression scope: (name) @name.reference.class)
(nullsafe_member_call_expression name: (name) @name.reference.call)
(object_creation_expression (name) @name.reference.class)
(object_creation_expression (qualified_name (name) @name.reference.class))
(base_clause (name) @name.reference.class)
(base_clause (qualified_name (name) @name.reference.class))
(class_interface_clause (name) @name.reference.interface)
(class_interface_clause (qualified_name (name) @name.reference.interface))
(use_declaration (name) @name.reference.interface)
(named_type (name) @name.reference.type)
(named_type (qualified_name (name) @name.reference.type))
(namespace_use_clause (qualified_name (name) @name.reference.module))
(member_access_expression name: (name) @name.reference.field)
