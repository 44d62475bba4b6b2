"""Static files in production: WhiteNoise's storage of hashed, compressed files, each
file's URL looked up once per process.

Every page names about a dozen files (`{% static %}`), and finding a file's hashed URL
(the manifest looked up, the name split, quoted and joined to `STATIC_URL`) cost 15–25 µs
a name, a third of a millisecond a page, for an answer that cannot change while the
process lives: the manifest is read once, when the process starts.
"""

from whitenoise.storage import CompressedManifestStaticFilesStorage


class KeptManifestStaticFilesStorage(CompressedManifestStaticFilesStorage):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._urls: dict[str, str] = {}

    def url(self, name, force=False):
        # `force` is collectstatic's own question (the hashed name even under DEBUG),
        # asked while the files are written: answered afresh.
        if force:
            return super().url(name, force)
        url = self._urls.get(name)
        if url is None:
            # A name missing from the manifest raises here, and is asked again next time.
            url = self._urls[name] = super().url(name)
        return url
