; tandem tags for JSX elements (inherited by javascript.scm and tsx.scm): components used.
; Lower-case elements are HTML intrinsics, not our components.

((jsx_opening_element name: (identifier) @name.reference.class) (#match? @name.reference.class "^[A-Z]"))
((jsx_self_closing_element name: (identifier) @name.reference.class) (#match? @name.reference.class "^[A-Z]"))
(jsx_opening_element name: (member_expression property: (property_identifier) @name.reference.class))
(jsx_self_closing_element name: (member_expression property: (property_identifier) @name.reference.class))
