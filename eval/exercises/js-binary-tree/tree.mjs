export class SearchTree {}
