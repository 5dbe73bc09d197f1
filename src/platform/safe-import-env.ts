// Runtimes that look for modules in the working folder first let a file a reply created stand in for a
// real module. Lint commands get the switches that stop that where a runtime has one (test commands run
// the repository's code by design, and import it from the working folder, so they keep the default):
// Python 3.11+ (`PYTHONSAFEPATH=1`: no script folder or working folder at the front of sys.path) and
// Perl (never `.` in @INC, which `PERL_USE_UNSAFE_INC=1` would bring back). Node and Ruby have no such
// switch (Node resolves from the script's own folder; Ruby never searches the working folder).
export function withSafeImportPaths(env: Readonly<Record<string, string>>): Record<string, string> {
  const out: Record<string, string> = { ...env, PYTHONSAFEPATH: '1' };
  delete out['PERL_USE_UNSAFE_INC'];
  return out;
}
