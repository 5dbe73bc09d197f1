export class Emitter {}
