"""DRF exception handler: a refused service call becomes a JSON error with a clear message."""
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_handler

from .services import ServiceError


def exception_handler(exc, context):
    if isinstance(exc, ServiceError):
        return Response({"error": exc.code, "detail": exc.message, "problems": exc.details}, status=exc.status)
    return drf_handler(exc, context)
