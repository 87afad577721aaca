from sphinx.builders.html import StandaloneHTMLBuilder


class SiteBuilder(StandaloneHTMLBuilder):
    name = 'myhtml'


def setup(app):
    app.add_builder(SiteBuilder)
    return {'parallel_read_safe': True, 'parallel_write_safe': True}
