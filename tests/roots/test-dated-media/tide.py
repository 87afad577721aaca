print('tide')
