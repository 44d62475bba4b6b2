import os

from django.core.wsgi import get_wsgi_application

from dalmuti_site.serving import ready_to_serve

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "dalmuti_site.settings")
application = get_wsgi_application()
ready_to_serve()
