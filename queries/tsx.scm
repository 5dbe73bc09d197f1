; inherits: typescript, jsx
; tandem tags for TSX: TypeScript plus JSX components.
