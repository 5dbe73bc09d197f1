// Module names a Python command imports by name: a new `name.py` (or `name/__init__.py`) where Python
// looks first would run instead of the real module. The standard library's top-level modules (as
// `sys.stdlib_module_names` lists them on CPython 3.11, private ones left out), plus the start-up
// hooks Python imports by itself.
export const PYTHON_STDLIB_MODULES: ReadonlySet<string> = new Set(
  (
    'abc aifc antigravity argparse array ast asynchat asyncio asyncore atexit audioop base64 bdb binascii bisect ' +
    'builtins bz2 cProfile calendar cgi cgitb chunk cmath cmd code codecs codeop collections colorsys compileall ' +
    'concurrent configparser contextlib contextvars copy copyreg crypt csv ctypes curses dataclasses datetime dbm ' +
    'decimal difflib dis distutils doctest email encodings ensurepip enum errno faulthandler fcntl filecmp fileinput ' +
    'fnmatch fractions ftplib functools gc genericpath getopt getpass gettext glob graphlib grp gzip hashlib heapq ' +
    'hmac html http idlelib imaplib imghdr imp importlib inspect io ipaddress itertools json keyword lib2to3 ' +
    'linecache locale logging lzma mailbox mailcap marshal math mimetypes mmap modulefinder msilib msvcrt ' +
    'multiprocessing netrc nis nntplib nt ntpath nturl2path numbers opcode operator optparse os ossaudiodev pathlib ' +
    'pdb pickle pickletools pipes pkgutil platform plistlib poplib posix posixpath pprint profile pstats pty pwd ' +
    'py_compile pyclbr pydoc pydoc_data pyexpat queue quopri random re readline reprlib resource rlcompleter runpy ' +
    'sched secrets select selectors shelve shlex shutil signal site smtpd smtplib sndhdr socket socketserver spwd ' +
    'sqlite3 sre_compile sre_constants sre_parse ssl stat statistics string stringprep struct subprocess sunau ' +
    'symtable sys sysconfig syslog tabnanny tarfile telnetlib tempfile termios textwrap this threading time timeit ' +
    'tkinter token tokenize tomllib trace traceback tracemalloc tty turtle turtledemo types typing unicodedata ' +
    'unittest urllib uu uuid venv warnings wave weakref webbrowser winreg winsound wsgiref xdrlib xml xmlrpc ' +
    'zipapp zipfile zipimport zlib zoneinfo sitecustomize usercustomize __main__'
  ).split(' '),
);

// Installed packages the common Python lint and test tools import as they start (pytest's pluggy, black's
// click...): a module of that name where Python looks first runs in their place. Not every installed
// module; the ones a lint or test command is sure to load.
export const PYTHON_TOOL_MODULES: ReadonlySet<string> = new Set(
  (
    'pytest _pytest pluggy iniconfig packaging exceptiongroup tomli toml typing_extensions setuptools pkg_resources ' +
    'attr attrs six yaml colorama click platformdirs pathspec mypy_extensions mypy flake8 pycodestyle pyflakes mccabe ' +
    'pylint astroid isort black coverage tox nox virtualenv filelock distlib'
  ).split(' '),
);
