"""Training of hivecam's small networks on randomised renders (needs the ``train`` extra: torch).

Nothing in the product imports this package: the product runs the exported ONNX files in
``vision/models`` through OpenCV's ``cv2.dnn``.
"""
