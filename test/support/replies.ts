// Reply texts in the shapes models write, for scripting the fake server.

/** One SEARCH/REPLACE block in the `diff` format: file name, fence, markers. */
export function searchReplace(path: string, search: string, replace: string): string {
  return `${path}\n\`\`\`\n<<<<<<< SEARCH\n${search}=======\n${replace}>>>>>>> REPLACE\n\`\`\`\n`;
}
