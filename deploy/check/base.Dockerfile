# python:3.11-slim-bookworm for `make deploy-check` where no registry is
# reachable: a bookworm root made by mmdebstrap (launcher/deploy_check.py),
# with `python` as the official image names it and this machine's CA bundle,
# through which pip reaches its index from the build.
FROM tabula-check/bookworm-root:latest
RUN ln -sf /usr/bin/python3 /usr/local/bin/python
COPY ca-certificates.crt /etc/ssl/certs/ca-certificates.crt
ENV PIP_CERT=/etc/ssl/certs/ca-certificates.crt LANG=C.UTF-8
CMD ["python3"]
