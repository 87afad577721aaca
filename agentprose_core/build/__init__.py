"""Where a build is run: the build session and the assembly strategies side by side.

Collect-then-assemble (MkDocs: :mod:`.collect`, :mod:`.assemble`), page-at-a-time
(Sphinx: :mod:`.pagewise`, :mod:`.deferred`, :mod:`.sitefiles`, planned by
:mod:`.plan`, kept current by :mod:`.incremental`) and ``agentprose build``
(:mod:`.postbuild`); the pages that list others (:mod:`.listings`). The plugins call
these modules, never ``records``, ``parallel``, ``render``, ``output`` or ``convert``.

Empty on purpose: importing one module of the package loads nothing else."""
