FROM python:3.11-slim
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1
RUN apt-get update && apt-get install -y --no-install-recommends gettext fonts-dejavu-core && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY requirements.txt .
RUN pip install --no-cache-dir -r requirements.txt
COPY . .
RUN DEBUG=0 SECRET_KEY=build-only ID_HASH_KEY=build-only python manage.py compilemessages --ignore=.venv \
 && DEBUG=0 SECRET_KEY=build-only ID_HASH_KEY=build-only python manage.py collectstatic --noinput
EXPOSE 8000
CMD ["python", "-m", "config.serve"]
