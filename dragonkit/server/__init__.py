"""The Voilà server of ``dragonkit serve``, made for a class on one machine.

:class:`~dragonkit.server.app.ClassroomVoila` is Voilà with what a class needs:

* a **kernel budget** (:mod:`~dragonkit.server.budget`): at most so many kernels on the machine
  (by default what its memory holds) and so many per visitor's address; beyond it a visitor gets a
  short page in their language (:mod:`~dragonkit.server.pages`: "the class is full, try again in a
  minute"), never a crash and never a kernel more;
* **kernels that end with their page**: Voilà's page asks the server to shut its kernel down when
  it is closed or reloaded, but Voilà 0.5 refuses the request for want of an ``_xsrf`` cookie it never
  sets (voila-dashboards/voila#1458): this server sets it with the page, and its culler passes over the kernels
  that pages shut down meanwhile (:mod:`~dragonkit.server.kernels`);
* **nothing fetched from outside**: Font Awesome, which Voilà's template asks of a public CDN, is
  served by the server itself from the ``fontawesomefree`` package;
* only the v1 kernel websocket protocol (:mod:`~dragonkit.server.kernel_socket`);
* the **teacher's dashboard** (``dashboard.ipynb``) behind a key the students' token does not open
  (:mod:`~dragonkit.server.teacher`), and, where the class's record is kept (``dragonkit serve`` for a class:
  :func:`dragonkit.cli.serves_a_class`), a **join page** that asks each student
  a nickname once and gives it to every page they open (:mod:`~dragonkit.server.join`);
* pages titled in their language (a lesson's own, an app's its visitor's), and a ``HEAD`` request answered as
  ``GET`` is, headers and status, without a kernel;
* its own short pages (the join page, the rooms' door, the teacher's page, the refusals) rendered from Jinja2
  templates that escape what they show (``templates/``, :func:`~dragonkit.server.pages.render`).

``python -m dragonkit.server`` takes Voilà's command line; ``dragonkit serve`` writes it.
"""
